"""What-if variants: --vary KEY=V1,V2 turned into mpisimrun options. A factor (0.5x) scales the
baseline machine's value, read from its report's settings.machine, and is passed as an absolute
value in a unit that parses back exactly (picoseconds, bytes/s)."""
import math
import re
from dataclasses import dataclass
from decimal import Decimal

from .cli import UsageError

# key: (option, settings.machine field, kind) for the keys a factor may scale.
SCALED = {
    "latency": ("--latency", "latency_ps", "time"),
    "bandwidth": ("--bandwidth", "bandwidth_bytes_per_s", "bandwidth"),
    "cpu": ("--cpu-scale", "cpu_scale", "number"),
    "send-overhead": ("--send-overhead", "send_overhead_ps", "time"),
    "recv-overhead": ("--recv-overhead", "recv_overhead_ps", "time"),
    "io-latency": ("--io-latency", "io_latency_ps", "time"),
    "io-bandwidth": ("--io-bandwidth", "io_bandwidth_bytes_per_s", "bandwidth"),
    "io-shared-bandwidth": ("--io-shared-bandwidth", "io_shared_bandwidth_bytes_per_s",
                            "bandwidth"),
}
# A factor is a decimal number, with an exponent if wanted (1e-1x, 2.5E3x), then x.
FACTOR = re.compile(r"^((?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)x$")
KEY = re.compile(r"^[a-z][a-z0-9-]*$")


@dataclass
class Variant:
    key: str
    value: str  # as given: 0.5x, sp2, torus:8x8x16
    factor: float | None

    @property
    def option(self):
        return SCALED[self.key][0] if self.key in SCALED else f"--{self.key}"

    @property
    def label(self):
        return f"{self.key}={self.value}"


def split_values(key, text):
    """V1,V2,... where a topology's own comma (fat-tree:4,3) stays with its value."""
    values = []
    for piece in text.split(","):
        if key == "topology" and values and piece.isdigit() and ":" in values[-1]:
            values[-1] += "," + piece
        else:
            values.append(piece)
    return values


def parse_vary(spec):
    """The variants of one --vary KEY=V1,V2."""
    key, sep, text = spec.partition("=")
    if not sep or not KEY.match(key) or not text:
        raise UsageError(f"--vary {spec!r} is not KEY=V1,V2 (e.g. --vary latency=0.5x,2x or "
                         "--vary machine=sp2)")
    if key in ("np", "n", "ranks", "record", "report"):
        raise UsageError(f"--vary {key} cannot be varied in a what-if (use the scaling study for "
                         "rank counts)")
    variants = []
    for value in split_values(key, text):
        if not value:
            raise UsageError(f"--vary {spec!r} has an empty value")
        m = FACTOR.match(value)
        factor = None
        if m:
            factor = float(m.group(1))
            if key not in SCALED:
                raise UsageError(f"--vary {key}={value}: a factor applies to "
                                 f"{', '.join(SCALED)} only; give {key} a value")
            if not factor > 0:
                raise UsageError(f"--vary {key}={value}: the factor must be greater than 0")
            if not math.isfinite(factor):
                raise UsageError(f"--vary {key}={value}: the factor is too large")
        variants.append(Variant(key, value, factor))
    return variants


def exact_decimal(x):
    return format(Decimal(repr(x)).normalize(), "f")


def absolute(variant, machine):
    """The option's value for the variant, from the baseline machine for a factor."""
    if variant.factor is None:
        return variant.value
    option, field, kind = SCALED[variant.key]
    base = machine.get(field) if machine else None
    if base is None:
        raise ValueError(f"the baseline report has no settings.machine.{field} to scale")
    scaled = base * variant.factor
    if kind == "time":
        ps = round(scaled)
        if variant.key == "latency" and ps <= 0:
            raise ValueError(f"{variant.label} makes the latency 0 ps; it must stay > 0")
        return f"{ps}ps"
    if kind == "bandwidth":
        if base == 0 or scaled == float("inf"):
            return "infinite"
        return f"{exact_decimal(round(scaled) if scaled >= 1 else scaled)}B/s"
    return exact_decimal(scaled)
