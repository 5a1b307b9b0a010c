"""Gmail: messages, threads, search, labels, drafts, sending and replies, filters, vacation, send-as and blocking."""
