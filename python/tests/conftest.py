"""The suites import their helpers (capi.py, data.py) from this folder. bfloat16 numpy arrays need
ml_dtypes: CI sets HIPREDUCE_REQUIRE_BF16=1, so that its absence fails the run there (data.py)."""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
