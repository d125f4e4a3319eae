# Stand-in for z_1_get_practice_source.py.
import random
random.seed(42)
