"""Shared dtypes and data of the cpu-device suites (ml_dtypes is required: it carries bfloat16)."""
import os
import sys

import ml_dtypes
import numpy as np

sys.path.insert(0, os.path.dirname(__file__))  # capi.py, data.py
