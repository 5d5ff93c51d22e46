#!/bin/sh
# A launcher script: mpisimrun passes scripts on; the program it runs is an mpisim program.
exec "$@"
