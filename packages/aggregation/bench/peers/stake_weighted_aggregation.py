"""Replica of a Python validator's stake-weighted aggregation with modified-z outliers (docs/spec.md C.3, C.4,
as a numpy validator writes it): per miner, the evaluations of staked validators, modified z-score
(0.6745 (x - median) / MAD, |M| > 3.5 excluded; MAD = 0: MeanAD fallback; both 0: nothing excluded), then
scored iff >= min_validators remain holding >= min_stake_fraction of the total stake, score = sum(stake *
score) / sum(stake). Input: {"miners": [hotkey], "validators": [hotkey], "stakes": [..], "scores":
[[score per validator] per miner] (null = no evaluation), "min_validators", "min_stake_fraction"}. Output:
[[hotkey, score or None]] by hotkey."""
import numpy as np


def prepare(raw):
    scores = np.array([[np.nan if s is None else s for s in row] for row in raw["scores"]], dtype=np.float64)
    return {
        "miners": raw["miners"],
        "stakes": np.array(raw["stakes"], dtype=np.float64),
        "scores": scores,
        "min_validators": raw["min_validators"],
        "min_stake_fraction": raw["min_stake_fraction"],
    }


def peer(p):
    stakes = p["stakes"]
    total = stakes.sum()
    out = []
    for hotkey, row in zip(p["miners"], p["scores"]):
        mask = ~np.isnan(row) & (stakes > 0)
        x = row[mask]
        s = stakes[mask]
        keep = np.ones(x.shape[0], dtype=bool)
        if x.shape[0] >= 3:
            median = np.median(x)
            dev = np.abs(x - median)
            mad = np.median(dev)
            if mad > 0:
                keep = np.abs(0.6745 * (x - median) / mad) <= 3.5
            else:
                spread = 1.253314 * dev.mean()
                if spread > 0:
                    keep = np.abs((x - median) / spread) <= 3.5
        x = x[keep]
        s = s[keep]
        behind = s.sum()
        if x.shape[0] < p["min_validators"] or not behind > 0 or behind / total < p["min_stake_fraction"]:
            out.append([hotkey, None])
        else:
            out.append([hotkey, float((s * x).sum() / behind)])
    return out
