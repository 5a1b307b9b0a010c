"""Training: the OpenRLHF agent interface over envfactory environments, dataset builders and SFT export.

Lands with the training issue; it only uses the public runtime API of envfactory_gym.
"""
