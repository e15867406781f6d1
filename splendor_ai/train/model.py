"""The network in PyTorch (training only), its losses, and export to a `.splnn` file.

The layout matches the C evaluation exactly (docs/learned.md): hidden Linear+ReLU layers,
a value head over `max_players` seats relative to the mover, a policy head over the
game's policy classes.
"""
from __future__ import annotations

import math
from array import array

import numpy as np
import torch
from torch import nn

from ..nn.weights import NetFile

MAX_PLAYERS = 4
LR_SCHEDULES = ("constant", "cosine")


class PolicyValueNet(nn.Module):
    def __init__(self, n_in: int, hidden: list[int], policy_size: int, max_players: int = MAX_PLAYERS):
        super().__init__()
        layers, prev = [], n_in
        for h in hidden:
            layers += [nn.Linear(prev, h), nn.ReLU()]
            prev = h
        self.trunk = nn.Sequential(*layers)
        self.value = nn.Linear(prev, max_players)
        self.policy = nn.Linear(prev, policy_size)
        self.n_in, self.hidden, self.policy_size, self.max_players = n_in, list(hidden), policy_size, max_players

    def forward(self, x):
        h = self.trunk(x)
        return self.value(h), self.policy(h)


def losses(model: PolicyValueNet, batch: dict) -> tuple[torch.Tensor, torch.Tensor]:
    """(value loss, policy loss): cross-entropies against the outcome over the seats in the
    game and against the visit shares over the legal actions' classes."""
    v_logits, p_logits = model(batch["features"])
    seat_mask = batch["seat_mask"]
    v_logp = torch.log_softmax(v_logits.masked_fill(~seat_mask, -1e9), dim=1)
    value_loss = -(batch["value"] * v_logp.masked_fill(~seat_mask, 0.0)).sum(1).mean()
    legal = batch["legal"]
    has_policy = legal.any(1)
    p_logp = torch.log_softmax(p_logits.masked_fill(~legal, -1e9), dim=1)
    per_row = -(batch["policy"] * p_logp.masked_fill(~legal, 0.0)).sum(1)
    policy_loss = per_row[has_policy].sum() / has_policy.sum().clamp(min=1)
    return value_loss, policy_loss


def dense_targets(data: dict, policy_size: int) -> tuple[np.ndarray, np.ndarray]:
    """The CSR policy targets as dense (visit shares, legal mask) arrays."""
    n = len(data["players"])
    offsets = data["pol_offsets"]
    rows = np.repeat(np.arange(n), np.diff(offsets))
    policy = np.zeros((n, policy_size), dtype=np.float32)
    legal = np.zeros((n, policy_size), dtype=bool)
    policy[rows, data["pol_cls"]] = data["pol_p"]
    legal[rows, data["pol_cls"]] = True
    return policy, legal


def train(model: PolicyValueNet, data: dict, *, epochs: int, batch_size: int = 512, lr: float = 1e-3,
          weight_decay: float = 1e-4, seed: int = 0, optimizer_state: dict | None = None,
          validation: float = 0.05, search_value_weight: float = 0.5, symmetry=None,
          lr_schedule: str = "constant", log=None) -> tuple[dict, dict]:
    """Trains on `data` (merged self-play arrays); returns (metrics, optimizer state).
    `symmetry` (augment.ColourSymmetry, or None): each training position is seen in a
    random colour permutation (the held-out positions as they are). `lr_schedule`:
    "constant", or "cosine" (the rate falls from `lr` to zero over the epochs' steps)."""
    if lr_schedule not in LR_SCHEDULES:
        raise ValueError(f"lr_schedule: {lr_schedule!r} is not one of {', '.join(LR_SCHEDULES)}")
    gen = torch.Generator().manual_seed(seed)
    features = torch.from_numpy(data["features"].astype(np.float32))
    policy, legal = map(torch.from_numpy, dense_targets(data, model.policy_size))
    # The value target blends the outcome with the search's own estimate at the root: the
    # outcome alone is one bit per game shared by all its positions, which a net memorises
    # (it can tell games apart by their cards) instead of learning.
    value = torch.from_numpy((1 - search_value_weight) * data["value"]
                             + search_value_weight * data.get("search_value", data["value"]))
    players = torch.from_numpy(data["players"].astype(np.int64))
    seat_mask = torch.arange(model.max_players)[None, :] < players[:, None]
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=weight_decay)
    if optimizer_state:
        opt.load_state_dict(optimizer_state)
        for g in opt.param_groups:
            g["lr"] = lr
    # The last positions (whole games, in the order they were played) are held out: the
    # epoch with the lowest held-out loss is the one kept, so a small window cannot overfit.
    n_all = len(features)
    n = n_all - max(1, int(n_all * validation)) if n_all > 20 else n_all
    held = slice(n, n_all) if n < n_all else slice(0, n_all)

    if symmetry is not None:
        sym_features = torch.from_numpy(symmetry.features)
        sym_policy = torch.from_numpy(symmetry.policy)

    def batch_of(idx, augment=False):
        f, p, lg = features[idx], policy[idx], legal[idx]
        if augment and symmetry is not None:
            which = torch.randint(len(symmetry.perms), (len(idx),), generator=gen)
            f = torch.gather(f, 1, sym_features[which])
            p = torch.gather(p, 1, sym_policy[which])
            lg = torch.gather(lg, 1, sym_policy[which])
        return {"features": f, "policy": p, "legal": lg, "value": value[idx], "seat_mask": seat_mask[idx]}

    def held_out_loss():
        model.eval()
        with torch.no_grad():
            v, p = losses(model, batch_of(torch.arange(n_all)[held]))
        model.train()
        return v.item(), p.item()

    steps = epochs * -(-n // batch_size)
    step = 0
    best_state, best_loss, metrics = None, float("inf"), {}
    model.train()
    for epoch in range(epochs):
        perm = torch.randperm(n, generator=gen)
        tot_v = tot_p = 0.0
        for start in range(0, n, batch_size):
            idx = perm[start:start + batch_size]
            if lr_schedule == "cosine":
                for g in opt.param_groups:
                    g["lr"] = lr * 0.5 * (1 + math.cos(math.pi * step / steps))
            step += 1
            v_loss, p_loss = losses(model, batch_of(idx, augment=True))
            loss = v_loss + p_loss
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot_v += v_loss.item() * len(idx)
            tot_p += p_loss.item() * len(idx)
        val_v, val_p = held_out_loss()
        if log:
            log(f"  epoch {epoch + 1}/{epochs} (learning rate {opt.param_groups[0]['lr']:.2g} at its end): "
                f"value loss {tot_v / n:.4f} (held out {val_v:.4f}), "
                f"policy loss {tot_p / n:.4f} (held out {val_p:.4f})")
        if val_v + val_p < best_loss:
            best_loss = val_v + val_p
            best_state = {k: t.clone() for k, t in model.state_dict().items()}
            metrics = {"epoch": epoch + 1, "value_loss": tot_v / n, "policy_loss": tot_p / n,
                       "held_out_value_loss": val_v, "held_out_policy_loss": val_p}
    for g in opt.param_groups:  # the saved state names the run's rate, not the schedule's last step
        g["lr"] = lr
    assert best_state is not None, "no epoch had a finite held-out loss"
    model.load_state_dict(best_state)
    model.eval()
    return metrics, opt.state_dict()


def from_netfile(net: NetFile) -> PolicyValueNet:
    """A model with the weights of a loaded .splnn file (the inverse of export)."""
    model = PolicyValueNet(net.num_features, list(net.hidden), net.policy_size, net.max_players)
    flat = torch.tensor(np.asarray(net.payload, dtype=np.float32))
    at = 0
    linears = [m for m in model.trunk if isinstance(m, nn.Linear)] + [model.value, model.policy]
    with torch.no_grad():
        for lin in linears:
            for t in (lin.weight, lin.bias):
                t.copy_(flat[at:at + t.numel()].view_as(t))
                at += t.numel()
    if at != len(flat):
        raise ValueError(f"payload holds {len(flat)} floats, the layout {at}")
    model.eval()
    return model


def export(model: PolicyValueNet, game: str, players: list[int], feature_version: int,
           generation: int, info: dict) -> NetFile:
    """The model as a NetFile (payload in PyTorch's layout, docs/learned.md)."""
    payload = array("f")
    with torch.no_grad():
        linears = [m for m in model.trunk if isinstance(m, nn.Linear)] + [model.value, model.policy]
        for lin in linears:
            payload.extend(lin.weight.detach().float().contiguous().view(-1).tolist())
            payload.extend(lin.bias.detach().float().contiguous().view(-1).tolist())
    return NetFile(game=game, players=list(players), feature_version=feature_version,
                   num_features=model.n_in, policy_size=model.policy_size, max_players=model.max_players,
                   hidden=model.hidden, payload=payload, generation=generation, info=info)
