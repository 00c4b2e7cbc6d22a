"""Business logic: services write, selectors read. Consumers, views and tasks only call these."""
