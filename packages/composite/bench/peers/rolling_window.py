"""C-SWON's rolling window as the seed text and SPEC A describe it: per miner a Python list of the last
100 task scores, equal weight ("a rolling 100-task window with equal weight per task"); a new score is
appended and the oldest popped once 100 are held; the window score is the mean of the scores present,
summed left to right. Not shipped: the peer `pnpm bench` times next to @subnet/composite.

Input: {"uids": [...], "scores": [...]} in arrival order. Output: [[uid, score, count], ...] by uid."""

WINDOW = 100


def peer(prepared):
    windows = {}
    uids = prepared["uids"]
    scores = prepared["scores"]
    for i in range(len(uids)):
        window = windows.get(uids[i])
        if window is None:
            window = windows[uids[i]] = []
        window.append(scores[i])
        if len(window) > WINDOW:
            window.pop(0)
    return windows


def to_json(windows):
    out = []
    for uid in sorted(windows):
        window = windows[uid]
        total = 0.0
        for score in window:  # left to right, as SPEC A writes it (sum() may compensate on newer Pythons)
            total += score
        out.append([uid, total / len(window), len(window)])
    return out
