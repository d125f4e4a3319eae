# Stand-in for the LifeMem release's memory/prompts.py, written for the
# harness's tests: the same variable names and format fields, our own words.
cluster_trajectory = """Stand-in assignment.
New: {trajectories}
Known clusters: {existing_clusters}
Answer with ADD <id> to <cluster> or NEW <cluster> with <id>; a literal {{brace}} stays."""

get_summary = """Stand-in summary of {trajectories}
Earlier: {summary}
"""

get_split="""Stand-in split of {cluster_id} ({summary}).
{examples}
Avoid `{old_cluster_id}`.
"""

get_representations = """Stand-in rules from {success_history}
"""
