"""Ramp, the corporate card and spend management platform, as its Developer API presents one business."""
