"""Replica of the Python SDK's weight path (opentensor/bittensor, bittensor/utils/weight_utils.py at
bb526e6d: normalize_max_weight, lines 26-70, and convert_weights_and_uids_for_emit, lines 165-210),
preceded by what a Python validator does to get there: map each scored hotkey to its uid through a dict
built once from the metagraph (hotkeys by uid), as our side reuses an indexMetagraph index. Input: {"metagraph": [hotkey by uid], "hotkeys": [...],
"scores": [...], "limit": cap}. Output: the emitted (uids, u16 values), as lists."""
import numpy as np

U16_MAX = 65535


def normalize_max_weight(x, limit=0.1):
    # The SDK's function, statement for statement.
    epsilon = 1e-7
    weights = x.copy()
    values = np.sort(weights)
    if x.sum() == 0 or x.shape[0] * limit <= 1:
        return np.ones_like(x) / x.shape[0]
    else:
        estimation = values / values.sum()
        if estimation.max() <= limit:
            return weights / weights.sum()
        cumsum = np.cumsum(estimation, 0)
        estimation_sum = np.array([(len(values) - i - 1) * estimation[i] for i in range(len(values))])
        n_values = (estimation / (estimation_sum + cumsum + epsilon) < limit).sum()
        cutoff_scale = (limit * cumsum[n_values - 1] - epsilon) / (1 - (limit * (len(estimation) - n_values)))
        cutoff = cutoff_scale * values.sum()
        weights[weights > cutoff] = cutoff
        y = weights / weights.sum()
        return y


def convert_weights_and_uids_for_emit(uids, weights):
    # The SDK's function, statement for statement.
    weights = weights.tolist()
    uids = uids.tolist()
    if min(weights) < 0:
        raise ValueError("Passed weight is negative cannot exist on chain")
    if min(uids) < 0:
        raise ValueError("Passed uid is negative cannot exist on chain")
    if len(uids) != len(weights):
        raise ValueError("Passed weights and uids must have the same length")
    if sum(weights) == 0:
        return [], []
    else:
        max_weight = float(max(weights))
        weights = [float(value) / max_weight for value in weights]
    weight_vals = []
    weight_uids = []
    for i, (weight_i, uid_i) in enumerate(list(zip(weights, uids))):
        uint16_val = round(float(weight_i) * int(U16_MAX))
        if uint16_val != 0:
            weight_vals.append(uint16_val)
            weight_uids.append(uid_i)
    return weight_uids, weight_vals


def prepare(raw):
    return {
        "uid_of": {hotkey: uid for uid, hotkey in enumerate(raw["metagraph"])},
        "hotkeys": raw["hotkeys"],
        "scores": np.array(raw["scores"], dtype=np.float64),
        "limit": raw["limit"],
    }


def peer(p):
    uid_of = p["uid_of"]
    uids = np.array([uid_of[h] for h in p["hotkeys"]], dtype=np.int64)
    weights = normalize_max_weight(p["scores"], p["limit"])
    return convert_weights_and_uids_for_emit(uids, weights)


def to_json(output):
    return {"uids": list(output[0]), "weights": list(output[1])}
