"""The suites import their helpers (capi.py, data.py) from this folder; data.py requires ml_dtypes
(bfloat16 numpy arrays), so a missing ml_dtypes fails the run instead of skipping bfloat16."""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
