"""The strategy studies behind the explorers, one module per study (re-exported by
``golflab.strategy``): ``tiers``, ``pairing``, ``personalities``, ``turns``; ``common``
holds what they share."""
