"""Targets across several runs of the benchmark table (``run.py --runs N``): each target's value in every run and
whether it was met in all of them.

A row of the table names its targets in the ``target`` column (``"hand<=1.1 ok, keras<=1.00 MISS"``); each
target reads its value from the row's column for it: ``hand<=`` from ``ours/hand``, ``keras<=`` from
``ours/keras``, ``ours<`` from ``ours``. A target counts as met only when it is ``ok`` in every run: missed,
unmeasured (``?``) or absent from a run's table are all failures of that run.

>>> header = ["workload", "backend", "unit", "ours", "hand", "keras", "ours/hand", "ours/keras", "target", "note"]
>>> runs = [[["B6", "jax", "ms/step", "31", "68", "39", "0.46x", f"{r:.2f}x", f"keras<=1.00 {s}", ""]]
...         for r, s in ((0.8, "ok"), (1.01, "MISS"))]
>>> rows, verdict = summarize(header, runs)
>>> rows[0]
['B6', 'jax', 'keras<=1.00', '0.80x ok', '1.01x MISS', 'no (run 2)']
>>> verdict
'Verdict over 2 runs: 1 target(s) not met in every run: B6 jax keras<=1.00 (run 2).'
"""

#: target label prefix -> the column that holds its value
_VALUE_COLUMNS = {"hand<=": "ours/hand", "keras<=": "ours/keras", "ours<": "ours"}


def checks(header, row):
    """The targets of one table row as ``[(label, value, met)]``: ``label`` such as ``"keras<=1.00"``, ``value``
    the cell it judges, ``met`` True (ok), False (MISS) or None (not measured: ``?``)."""
    cells = dict(zip(header, row))
    out = []
    for part in (p.strip() for p in cells.get("target", "").split(",")):
        if not part:
            continue
        label, _, status = part.rpartition(" ")
        column = next((c for prefix, c in _VALUE_COLUMNS.items() if label.startswith(prefix)), None)
        met = True if status == "ok" else False if status == "MISS" else None
        out.append((label, cells.get(column, "-") if column else "-", met))
    return out


def summarize(header, runs):
    """Every target of every run's table (``runs``: one list of rows per run) side by side.

    Returns:
        ``(rows, verdict)``: one row per target, ``[workload, backend, target, run 1, ..., run N, met in all]``
        (a run's cell is ``"value ok"`` / ``"value MISS"`` / ``"value ?"``, or ``"-"`` where that run's table
        lacks the row), in the order targets first appear; and one line naming each target not met in every
        run, with the runs that failed it.
    """
    found = {}  # (workload, backend, label) -> {run index: (value, met)}
    for r, rows in enumerate(runs):
        for row in rows:
            for label, value, met in checks(header, row):
                found.setdefault((row[0], row[1], label), {})[r] = (value, met)
    out, failed = [], []
    for (workload, backend, label), per_run in found.items():
        cells, bad = [], []
        for r in range(len(runs)):
            value, met = per_run.get(r, ("-", None))
            cells.append("-" if r not in per_run else f"{value} {'ok' if met else 'MISS' if met is False else '?'}")
            if met is not True:
                bad.append(r + 1)
        verdict = "yes" if not bad else f"no (run{'s' if len(bad) > 1 else ''} {', '.join(map(str, bad))})"
        out.append([workload, backend, label, *cells, verdict])
        if bad:
            failed.append(f"{workload} {backend} {label} ({verdict[4:-1]})")
    n = len(runs)
    if not found:
        return out, f"Verdict over {n} runs: no targets in the table."
    if not failed:
        return out, f"Verdict over {n} runs: all {len(found)} target(s) met in every run."
    return out, f"Verdict over {n} runs: {len(failed)} target(s) not met in every run: {'; '.join(failed)}."


def summary_header(n):
    """The summary table's column names for ``n`` runs."""
    return ["workload", "backend", "target", *(f"run {r + 1}" for r in range(n)), "met in all"]
