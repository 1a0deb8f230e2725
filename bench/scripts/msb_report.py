"""Multi-SWE-bench's own report code over stage logs kept by `faun validate --stage-logs DIR`.

For every DIR/<instance>/ holding instance.json, run.log, test-patch-run.log and fix-patch-run.log, builds
the repository's Multi-SWE-bench instance class as its ReportTask does (a pull request without
number_interval: the repository's own class; `--interval` picks a PR-range class `<repo>_<hi>_to_<lo>`
when the number falls in one, as for dataset rows that carry number_interval), parses the three logs
with its parse_log and runs generate_report; prints one JSON line per instance: valid, error (first line), f2p, p2p, s2p, n2p,
fixed (sorted test names), or `error_kind` when the reference has no class for the repository.

  /usr/bin/python3 bench/scripts/msb_report.py --msb-src /tmp/msb --logs DIR

--msb-src is an extracted Multi-SWE-bench source tree (git archive HEAD multi_swe_bench), never committed.
Needs Debian's python3-dataclasses-json and python3-unidiff.
"""

import argparse
import json
import re
import sys
from pathlib import Path


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--msb-src", required=True)
    ap.add_argument("--logs", required=True)
    ap.add_argument("--interval", action="store_true")
    a = ap.parse_args()
    sys.path.insert(0, a.msb_src)
    import multi_swe_bench.harness.repos  # noqa: F401  (registers every instance class)
    from multi_swe_bench.harness.image import Config
    from multi_swe_bench.harness.instance import Instance
    from multi_swe_bench.harness.pull_request import Base, PullRequest
    from multi_swe_bench.harness.report import generate_report

    registry = Instance._registry
    lower = {k.lower(): k for k in registry}

    def interval_for(org: str, repo: str, number: int) -> str:
        for name in registry:
            o, _, r = name.partition("/")
            m = re.fullmatch(re.escape(repo) + r"_(\d+)_to_(\d+)", r, re.IGNORECASE)
            if o.lower() == org.lower() and m and int(m.group(2)) <= number <= int(m.group(1)):
                return r
        return ""

    for d in sorted(p for p in Path(a.logs).iterdir() if (p / "instance.json").exists()):
        meta = json.loads((d / "instance.json").read_text())
        out = {"instance_id": meta["instance_id"]}
        logs = [d / n for n in ("run.log", "test-patch-run.log", "fix-patch-run.log")]
        if not all(p.exists() for p in logs):
            out["error_kind"] = "missing stage logs"
            print(json.dumps(out, sort_keys=True))
            continue
        full = lower.get(meta["repo"].lower())
        if full is None:
            out["error_kind"] = "no Multi-SWE-bench instance class for " + meta["repo"]
            print(json.dumps(out, sort_keys=True))
            continue
        org, repo = full.split("/", 1)
        number = int(meta.get("pr") or 0)
        pr = PullRequest(
            org=org,
            repo=repo,
            number=number,
            state="",
            title="",
            body="",
            base=Base(label="", ref="", sha=""),
            resolved_issues=[],
            fix_patch="",
            test_patch="",
            number_interval=interval_for(org, repo, number) if a.interval else "",
        )
        inst = Instance.create(pr, Config(need_clone=False, global_env=None, clear_env=False))
        texts = [p.read_text(encoding="utf-8", errors="replace") for p in logs]
        try:
            r = generate_report(inst, *texts)
        except Exception as e:  # the reference raising is a result too
            out["error_kind"] = f"reference raised {type(e).__name__}: {e}"
            print(json.dumps(out, sort_keys=True))
            continue
        out.update(
            {
                "valid": bool(r.valid),
                "error": (r.error_msg or "").split(".")[0],
                "f2p": sorted(r.f2p_tests),
                "p2p": sorted(r.p2p_tests),
                "s2p": sorted(r.s2p_tests),
                "n2p": sorted(r.n2p_tests),
                "fixed": sorted(r.fixed_tests),
                "class": type(inst).__name__,
            }
        )
        print(json.dumps(out, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
