#!/usr/bin/env python3
"""Computes expected.json from cases.json with the reference graders' own code (run locally, never committed).

Usage (Debian: python3-dataclasses-json python3-unidiff python3-docker python3-tqdm):
  git --git-dir=<mirror of SWE-bench/SWE-bench> archive <commit> swebench | tar -x -C /tmp/swe
  git --git-dir=<mirror of multi-swe-bench/multi-swe-bench> archive <commit> multi_swe_bench | tar -x -C /tmp/msb
  /usr/bin/python3 compute.py /tmp/swe /tmp/msb <swe-commit> <msb-commit> > expected.json 2>/dev/null
"""
import json
import logging
import sys
import tempfile
import types
from pathlib import Path

HERE = Path(__file__).parent
swe_root, msb_root = sys.argv[1], sys.argv[2]
cases = json.loads((HERE / "cases.json").read_text())

# SWE-bench: load the grading modules without the package __init__ (which pulls in the whole harness).
for pkg in ("swebench", "swebench.harness", "swebench.image_builder"):
    m = types.ModuleType(pkg)
    m.__path__ = [str(Path(swe_root, *pkg.split(".")))]
    sys.modules[pkg] = m
sys.path.insert(0, swe_root)
from swebench.harness.grading import get_eval_report  # noqa: E402

sys.path.insert(0, msb_root)
from multi_swe_bench.harness import gen_report  # noqa: E402
from multi_swe_bench.harness.report import ReportTask  # noqa: E402
from multi_swe_bench.harness.test_result import TestResult  # noqa: E402


def swebench_case(c):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(c["log"]) + "\n")
    spec = types.SimpleNamespace(
        instance_id="x__y-1",
        FAIL_TO_PASS=c["f2p"],
        PASS_TO_PASS=c["p2p"],
        eval_type=c["eval_type"],
        log_parser="parse_log_pytest",
    )
    pred = {"instance_id": "x__y-1", "model_patch": "diff", "model_name_or_path": "m"}
    r = get_eval_report(spec, pred, f.name, include_tests_status=True)["x__y-1"]
    out = {"resolved": r["resolved"], "patch_successfully_applied": r["patch_successfully_applied"]}
    if "tests_status" in r:
        out["tests_status"] = {k: r["tests_status"][k] for k in ("FAIL_TO_PASS", "PASS_TO_PASS")}
    return out


def stage(d):
    s = {k: set(d.get(k, [])) for k in ("passed_tests", "failed_tests", "skipped_tests")}
    return TestResult(
        passed_count=len(s["passed_tests"]),
        failed_count=len(s["failed_tests"]),
        skipped_count=len(s["skipped_tests"]),
        **s,
    )


def msb_case(c, tmp):
    """Runs Multi-SWE-bench's own gen_eval_reports on one (row, fix stage) pair."""
    row = c["row"]
    dataset = types.SimpleNamespace(
        **{k: {t: None for t in row.get(k, [])} for k in ("p2p_tests", "f2p_tests", "s2p_tests", "n2p_tests")},
        run_result=stage(row["run_result"]),
        test_patch_result=stage(row["test_patch_result"]),
    )
    inst_dir = Path(tmp)
    task = ReportTask("org", "repo", 1, inst_dir)
    fix = stage(c["fix"])
    # The fix stage's result stands in for parsing fix-patch-run.log with the repository's parser.
    ReportTask.fix_patch_run_log = property(lambda self: fix)
    ReportTask.instance = property(lambda self: types.SimpleNamespace(pr=self))
    cli = object.__new__(gen_report.CliArgs)
    cli.max_workers = 1
    cli.regen = True
    cli._logger = logging.getLogger("msb")
    cli.dataset_files = ["(in memory)"]
    cli._dataset = {task.id: dataset}
    reports, invalid, failed = cli.gen_eval_reports([task])
    assert not failed, failed
    report = (reports + invalid)[0]
    return {
        "resolved": bool(reports),
        "valid": bool(report.valid),
        "categories": {k: sorted(getattr(report, f"{k}_tests")) for k in ("p2p", "f2p", "s2p", "n2p")},
    }


logging.disable(logging.CRITICAL)
out = {
    "computed_by": {
        "SWE-bench/SWE-bench": sys.argv[3] if len(sys.argv) > 3 else "(commit not given)",
        "multi-swe-bench/multi-swe-bench": sys.argv[4] if len(sys.argv) > 4 else "(commit not given)",
        "functions": "swebench.harness.grading.get_eval_report (log_parser parse_log_pytest); "
        "multi_swe_bench.harness.gen_report.CliArgs.gen_eval_reports",
    },
    "swebench": [],
    "msb": [],
}
for c in cases["swebench"]:
    out["swebench"].append({"name": c["name"], "expected": swebench_case(c)})
for c in cases["msb"]:
    with tempfile.TemporaryDirectory() as tmp:
        out["msb"].append({"name": c["name"], "expected": msb_case(c, tmp)})
print(json.dumps(out, indent=1, sort_keys=True))
