"""The offline composer: builds materials from real tasks (bank, teacher's own, parametric generators), never pads."""
