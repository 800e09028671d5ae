"""C-SWON's composite scoring as the seed text describes it (seed A, "3.2 Scoring Formula v1.0.0"), with
the counters of SPEC A: a per-record count-and-score over plain dicts, no validation. Not shipped: the
peer that `pnpm bench` times next to @subnet/composite on identical records.

Input: {"cases": [{"task": ..., "plan": ..., "record": ...}, ...]}. Output: the list of S, one per case."""


def score_record(task, plan, record):
    node_ids = [node["id"] for node in plan["nodes"]]
    error_handling = plan.get("error_handling", {})
    # declared_retry_budget = sum of retry_count values in error_handling (0 if absent)
    declared = 0
    for entry in error_handling.values():
        declared += entry.get("retry_count", 0)
    per_node = {}
    timeouts = 0
    for attempt in record["attempts"]:
        node_id = attempt["node_id"]
        seen = per_node.get(node_id)
        if seen is None:
            seen = per_node[node_id] = [0, 0, None]  # attempts, highest attempt number, its status
        seen[0] += 1
        if attempt["attempt"] > seen[1]:
            seen[1] = attempt["attempt"]
            seen[2] = attempt["status"]
        # timeouts = step executions that exceeded declared timeout_seconds (or ended in timeout)
        limit = error_handling.get(node_id, {}).get("timeout_seconds")
        if attempt["status"] == "timeout" or (limit is not None and attempt["seconds"] > limit):
            timeouts += 1
    steps_completed = actual_retries = hard_failures = 0
    for node_id in node_ids:
        seen = per_node.get(node_id)
        if seen is None:
            continue
        actual_retries += seen[0] - 1
        if seen[2] == "success":
            steps_completed += 1
        elif seen[0] >= error_handling.get(node_id, {}).get("retry_count", 0) + 1:
            # hard_failures = steps that terminated after exhausting the declared retry budget
            hard_failures += 1
    unplanned_retries = max(0, actual_retries - declared)
    completion_ratio = steps_completed / len(node_ids)
    s_success = record["output_quality_score"] * completion_ratio
    constraints = task["constraints"]
    if s_success > 0.7:
        s_cost = max(0, 1 - record["actual_tao"] / constraints["max_budget_tao"])
        s_latency = max(0, 1 - record["actual_seconds"] / constraints["max_latency_seconds"])
    else:
        s_cost = 0
        s_latency = 0
    s_reliability = min(1.0, max(0, 1 - (unplanned_retries * 0.10 + timeouts * 0.20 + hard_failures * 0.50)))
    return 0.50 * s_success + 0.25 * s_cost + 0.15 * s_latency + 0.10 * s_reliability


def peer(prepared):
    return [score_record(case["task"], case["plan"], case["record"]) for case in prepared["cases"]]
