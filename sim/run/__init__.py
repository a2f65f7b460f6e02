"""Playing and keeping runs: the runner (chunks, seeds, progress), the executors (local worker
processes, a Dask cluster), the store (shards, manifest, chunk records, resume), the
configurations of a run (setups) and the limits on its size."""
