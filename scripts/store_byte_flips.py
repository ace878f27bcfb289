"""Flip N random single bits in one stored chunk; count flips `Store.check_chunk` reports and
flips that leave the data unchanged. Any other outcome (silently different data) is a failure.

    python scripts/store_byte_flips.py [N=300] [SEED=1]
"""
import random
import sys
import tempfile
from pathlib import Path

import pyarrow.parquet as pq

from vandatta_sim.store import Store
from vandatta_sim.sweep import expand_grid, run_sweep

n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
root = Path(tempfile.mkdtemp()) / "results"
config = expand_grid(players=[3], match="single")[0]
run_sweep([config], games=3000, chunk_size=1000, store=root, progress=False)
store, key = Store(root), config.key(0, 1000)
path = root / key / "chunk-000001.parquet"
data = path.read_bytes()
expected = pq.read_table(path).replace_schema_metadata(None)
reported = unchanged = silent = 0
for _ in range(n):
    flipped = bytearray(data)
    flipped[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    path.write_bytes(bytes(flipped))
    store = Store(root)
    if store.check_chunk(key, 1) is not None:
        reported += 1
        continue
    try:
        same = pq.read_table(path).replace_schema_metadata(None).equals(expected)
    except Exception:
        same = False
    unchanged += same
    silent += not same
print(f"{n} flips in a {len(data):,}-byte chunk: {reported} reported by verify, "
      f"{unchanged} leave the data unchanged, {silent} silently change the data")
sys.exit(1 if silent else 0)
