"""The MLP rows of the benchmark table (B1, B2): ``run.py --workloads B1,B2 --no-extras``, kept for old commands.

Per-step training time of ``model.fit`` against the hand-written loop (``_hand_loops.py``) and Keras 3 on every
backend; the workloads, contestants and method are described in ``run.py`` and ``_workloads.py``. Every
option of ``run.py`` works here (``--backends``, ``--workloads``, ``--clock cpu``, ``--quick``, ...).

Run: ``python benchmarks/train_mlp.py --clock cpu``.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from run import main  # noqa: E402


def mlp_argv(argv):
    """``argv`` with the MLP workloads as default and the extra rows off.

    >>> mlp_argv(["--quick"])
    ['--no-extras', '--workloads', 'B1,B2', '--quick']
    """
    defaults = [] if any(a.startswith("--workloads") for a in argv) else ["--workloads", "B1,B2"]
    return ["--no-extras", *defaults, *argv]


if __name__ == "__main__":
    main(mlp_argv(sys.argv[1:]))
