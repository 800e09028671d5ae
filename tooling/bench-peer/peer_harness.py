"""Times a Python peer the way our side is timed: one call for its output, then a warm-up, then calls
for about the given number of seconds of the chosen clock ("wall", or "cpu": this process's CPU time, so
time spent waiting for a core does not count). Usage:
peer_harness.py SCRIPT INPUT_JSON OUTPUT_JSON SECONDS [wall|cpu].
SCRIPT defines peer(prepared) and optionally prepare(input) (work done once, outside the timing)."""
import importlib.util
import json
import resource
import sys
import time


def main():
    script, input_file, output_file, seconds = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
    now = time.process_time if len(sys.argv) > 5 and sys.argv[5] == "cpu" else time.perf_counter
    spec = importlib.util.spec_from_file_location("peer_module", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with open(input_file, encoding="utf-8") as f:
        raw = json.load(f)
    prepared = module.prepare(raw) if hasattr(module, "prepare") else raw
    output = module.peer(prepared)
    if hasattr(module, "to_json"):
        output = module.to_json(output)
    warm_end = now() + seconds * 0.3
    while now() < warm_end:
        module.peer(prepared)
    calls, batch = 0, 1
    start = now()
    while True:
        for _ in range(batch):
            module.peer(prepared)
        calls += batch
        elapsed = now() - start
        if elapsed >= seconds:
            break
        if batch < (1 << 20):
            batch *= 2
    with open(output_file, "w", encoding="utf-8") as f:
        json.dump({"output": output, "ns_per_op": elapsed * 1e9 / calls,
                   "peak_rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}, f)


main()
