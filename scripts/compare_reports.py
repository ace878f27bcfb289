"""Say which reports came out byte-identical to the committed ones (the end of `make reports`).

Every file under ``reports/`` (the Markdown reports and their figures) is compared byte for byte
with the version committed at ``HEAD``; the script prints one line per kind (identical, changed,
new, missing) and exits 0 whatever it finds: a changed report is news, not an error. Outside a
git checkout it says so and compares nothing.

    python scripts/compare_reports.py [reports]
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def committed(path: str) -> bytes | None:
    """The bytes of ``path`` at HEAD, or None where HEAD has no such file."""
    result = subprocess.run(["git", "show", f"HEAD:{path}"], capture_output=True)
    return result.stdout if result.returncode == 0 else None


def tracked(folder: str) -> list[str]:
    result = subprocess.run(["git", "ls-tree", "-r", "--name-only", "HEAD", "--", folder],
                            capture_output=True, text=True)
    return result.stdout.split() if result.returncode == 0 else []


def compare(folder: str = "reports") -> dict[str, list[str]]:
    """Each file under ``folder`` (on disk or at HEAD) sorted into identical, changed, new and
    missing."""
    on_disk = {str(p) for p in Path(folder).rglob("*") if p.is_file()}
    at_head = set(tracked(folder))
    out: dict[str, list[str]] = {"identical": [], "changed": [], "new": [], "missing": []}
    for path in sorted(on_disk | at_head):
        if path not in at_head:
            out["new"].append(path)
        elif path not in on_disk:
            out["missing"].append(path)
        elif Path(path).read_bytes() == committed(path):
            out["identical"].append(path)
        else:
            out["changed"].append(path)
    return out


def main(argv: list[str]) -> int:
    folder = argv[1] if len(argv) > 1 else "reports"
    inside = subprocess.run(["git", "rev-parse", "--is-inside-work-tree"], capture_output=True)
    if inside.returncode != 0:
        print(f"{folder}: not a git checkout, so there are no committed reports to compare with")
        return 0
    result = compare(folder)
    print(f"reports compared with the committed ones (HEAD), byte for byte, in {folder}/:")
    for kind in ("identical", "changed", "new", "missing"):
        names = result[kind]
        if names:
            shown = ", ".join(str(Path(n).relative_to(folder)) for n in names)
            print(f"  {kind} ({len(names)}): {shown}")
    if not result["changed"] and not result["new"] and not result["missing"]:
        print(f"  every one of the {len(result['identical'])} files is byte-identical")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
