# Stand-in for the LifeMem release's memory/build_memory.py (tests only):
# only its shape matters here, the harness never runs it.
from prompts import cluster_trajectory


def ask(trajectory, clusters):
    return cluster_trajectory.format(trajectories=trajectory, existing_clusters=clusters)
