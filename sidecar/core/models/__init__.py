"""What is known about models: the catalog, the providers' model lists, and whether a model is current."""
