"""Games the conformance suite must refuse: their cheating re-deals (test_redeal_check.py)."""
