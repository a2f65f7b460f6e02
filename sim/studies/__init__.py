"""What a user asks of runs, built on the run machinery: strategies head to head (compare),
bot tuning (tune), rule balancing (balance), the skill ladder (ladder) and benchmarks (bench)."""
