"""Whether two checkouts compiled the same machine code: `python scripts/kernel_code_diff.py
CACHE_A CACHE_B` (numba cache folders, such as two checkouts' `.numba_cache`).

For an engine change meant to leave the fast kernels alone (a change to the plain build, a
comment), a timing A/B on a shared machine moves by ±10% between runs and cannot show that
nothing changed; the instructions can. Every entry of numba's cache holds the ELF object it
built for one signature of one function; this pairs the two caches' entries by function (its
name without the line number) and signature, disassembles each pair with `objdump -d`
(binutils) and compares the instructions, with the symbol names left out (they carry run-time
addresses and line numbers). Prints how many pairs have the same code, the pairs whose code
differs and how many entries only one cache has (a signature one of them compiled and the other
did not, such as the tests' own); exits 1 where a pair differs. Run it with the project's
Python: the signatures name the engine's numba types.
"""

from __future__ import annotations

import hashlib
import pickle
import re
import subprocess
import sys
import tempfile
from pathlib import Path

# an index file: MODULE.FUNCTION-LINE[-plain].py311.nbi (a salt such as -plain: another build)
INDEX = re.compile(r"^(?P<name>[\w.]+)-\d+(?P<salt>-\w+)?\.py\d+\.nbi$")


def _objects(value, depth=0):
    """The ELF objects inside a cache entry's pickled data (numba's code library)."""
    if isinstance(value, bytes) and value[:4] == b"\x7fELF":
        yield value
    elif depth < 8 and isinstance(value, (tuple, list)):
        for item in value:
            yield from _objects(item, depth + 1)
    elif depth < 8 and isinstance(value, dict):
        for item in value.values():
            yield from _objects(item, depth + 1)


def code_digest(entry: Path) -> str:
    """A digest of the instructions of a cache entry, its symbol names left out."""
    digest = hashlib.sha256()
    with tempfile.TemporaryDirectory() as folder:
        obj = Path(folder) / "entry.o"
        for blob in _objects(pickle.loads(entry.read_bytes())):
            obj.write_bytes(blob)
            text = subprocess.run(["objdump", "-d", "--no-show-raw-insn", str(obj)],
                                  capture_output=True, text=True, check=True).stdout
            for line in text.splitlines()[2:]:  # past the file's name
                line = re.sub(r"<[^>]*>", "", line.split(":\t", 1)[-1])
                digest.update(line.encode() + b"\n")
    return digest.hexdigest()


def cache_entries(cache: Path) -> dict[tuple[str, str], Path]:
    """Every compiled entry of a cache folder by (function, signature)."""
    import vandatta_sim.engine  # noqa: F401 (the signatures' types unpickle through it)

    entries = {}
    for index in sorted(cache.glob("*/*.nbi")):
        match = INDEX.match(index.name)
        if not match:
            continue
        with index.open("rb") as f:
            pickle.load(f)  # numba's version
            _stamp, overloads = pickle.loads(f.read())
        name = match["name"] + (match["salt"] or "")
        for key, data_name in overloads.items():
            # a type's class too: an unchecked view prints as the array it views
            signature = ", ".join(f"{type(t).__name__} {t}" for t in key[0])
            entries[name, signature] = index.parent / data_name
    return entries


def main(a: Path, b: Path) -> int:
    for folder in (a, b):
        if not folder.is_dir():
            print(f"Error: {folder} is not a folder (give two numba cache folders)")
            return 2
    entries_a, entries_b = cache_entries(a), cache_entries(b)
    pairs = sorted(set(entries_a) & set(entries_b))
    differ = [key for key in pairs
              if code_digest(entries_a[key]) != code_digest(entries_b[key])]
    print(f"{len(pairs) - len(differ)} of {len(pairs)} compiled signatures have the same code")
    for name, signature in differ:
        print(f"  differs: {name}({signature[:100]}…)")
    print(f"only in A: {len(set(entries_a) - set(entries_b))} entries; "
          f"only in B: {len(set(entries_b) - set(entries_a))}")
    return 1 if differ else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__.split("\n\n")[0])
        sys.exit(2)
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
