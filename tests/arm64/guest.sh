#!/bin/sh
set -x
cat /proc/cmdline
ls /sys/bus/event_source/devices/
ls /sys/bus/event_source/devices/armv8_pmuv3/ /sys/bus/event_source/devices/armv8_pmuv3/*
dmesg | grep -iE 'EL2|EL1|pmu|VHE'
perf stat -x, -e cycles:u,instructions:u,cycles:k /pk/loop 1000000
/pk/pmukit stat -x, -e cycles:u,instructions:u,cycles:k /pk/loop 1000000
perf stat -e cycles:u,instructions:u /pk/loop 1000000
/pk/pmukit stat -e cycles:u,instructions:u /pk/loop 1000000
