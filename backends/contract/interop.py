"""Objects that are also the engine's own: a Layer that is a ``torch.nn.Module``, a Variable a TensorFlow tape watches.

:meth:`CoreContract.interop_base_class` names, per engine, a class of the framework's object system. New layers and
variables made while that engine is current become instances of a subclass of both the user's class and that
class: the variant keeps the user's name, module and docstring, and :func:`front_class` gives back the user's class
(what saving names). Objects made on an engine without such a class are plain instances of their class.

>>> class Plain:
...     pass
>>> class Base:
...     pass
>>> variant = engine_variant(Plain, Base)
>>> variant.__name__, issubclass(variant, Plain), issubclass(variant, Base), front_class(variant) is Plain
('Plain', True, True, True)
"""

import copyreg
import weakref

#: (user class) -> {engine base class: variant}
_VARIANTS = weakref.WeakKeyDictionary()


def engine_variant(cls, base):
    """The subclass of ``cls`` and ``base`` that objects of ``cls`` become on an engine whose interop class is
    ``base`` (made once per pair). ``cls``'s own methods come first in its method order, except the names that
    ``base`` lists in its ``_hl_engine_attributes``: those take ``base``'s definition."""
    if issubclass(cls, base):
        return cls
    per_base = _VARIANTS.setdefault(cls, {})
    variant = per_base.get(base)
    if variant is None:
        namespace = {
            "__module__": cls.__module__,
            "__qualname__": cls.__qualname__,
            "__doc__": cls.__doc__,
            "_engine_origin": cls,
            "__reduce_ex__": _reduce_variant,
        }
        if "__slots__" in cls.__dict__ or hasattr(cls, "__slots__"):
            namespace["__slots__"] = ()
        # The few names the engine must define itself although the user's class has them too (TensorFlow's tape
        # reads ``handle`` of what acts as a resource variable): the base's own definitions go in the variant.
        for name in getattr(base, "_hl_engine_attributes", ()):
            for klass in base.__mro__:
                if name in klass.__dict__:
                    namespace[name] = klass.__dict__[name]
                    break
        variant = type(cls)(cls.__name__, (cls, base), namespace)
        per_base[base] = variant
    return variant


def _reduce_variant(obj, protocol):
    """Pickling (and ``copy.deepcopy``) of an engine variant's object: it is remade from the user's class, which
    pickle can find by name (the variant, made at run time, cannot be), and becomes the variant of the engine
    current when it is read back."""
    variant = type(obj)
    reduced = super(variant, obj).__reduce_ex__(protocol)
    if isinstance(reduced, tuple) and reduced[0] is copyreg.__newobj__ and reduced[1][0] is variant:
        return (_remake, (front_class(variant),) + tuple(reduced[1][1:])) + tuple(reduced[2:])
    return reduced


def _remake(cls, *args):
    return cls.__new__(cls, *args)


def front_class(cls):
    """The user's class behind an engine variant (or a functional variant of a Model subclass); ``cls`` itself
    otherwise."""
    seen = 0
    while seen < 4:  # an engine variant of a functional variant, or the other way round
        origin = cls.__dict__.get("_engine_origin") or cls.__dict__.get("_functional_origin")
        if origin is None or origin is cls:
            return cls
        cls, seen = origin, seen + 1
    return cls


def new_instance(cls, backend, kind):
    """``object.__new__`` of ``cls`` or of its variant for ``backend``'s interop class of ``kind``, prepared by the
    base's ``_hl_prepare_instance`` when it has one."""
    base = backend.interop_base_class(kind) if backend is not None else None
    if base is None:
        return object.__new__(cls)
    obj = object.__new__(engine_variant(cls, base))
    prepare = getattr(base, "_hl_prepare_instance", None)
    if prepare is not None:
        prepare(obj)
    return obj
