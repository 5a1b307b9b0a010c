"""Tool-chain sampling (paper 3.3.2, Appendix H): topology-aware (Algorithms 1-2) and random-walk samplers,
chain execution into ground-truth calls, and the sampling quality metrics."""
