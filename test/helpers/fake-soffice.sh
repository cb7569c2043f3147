#!/bin/sh
# Stands in for soffice.bin in unit tests of the office pool: stays up until killed.
exec sleep 3600
