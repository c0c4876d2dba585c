"""Game packages; each registers itself on import (see core.registry)."""
