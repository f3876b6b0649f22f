"""The strategy explorers: plotly dashboards over golflab's exact computations and simulations.

What they share, one thing a module: ``explorer`` (the ``Explorer`` base: sample size and seed,
the computing state, background recomputing), ``charts`` (``ChartSlot``: plotly charts replaced
whole), ``plotly_module`` (plotly's front-end module once per page under Voila), ``cache``
(``LRUCache``), ``downloads`` (CSV links), ``tables`` (HTML tables), ``players_control`` (the
CPU table) and ``precomputed`` (each explorer's default result, shipped)."""
