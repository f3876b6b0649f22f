"""The strategy explorers: plotly dashboards over golflab's exact computations and
simulations. ``base`` holds what they share (computing state, cache, CSV, sample size)."""
