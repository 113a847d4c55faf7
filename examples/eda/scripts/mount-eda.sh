#!/usr/bin/env bash
# Bootstrap an EDA compute node: mounts that are not (yet) in /etc/fstab.
# Volumes and mount targets: see ../eda.anf.yaml and examples/README.md.
set -euo pipefail

ANF_TOOLS="${ANF_TOOLS:-10.10.1.4}"
mkdir -p /tools /home /scratch /results /mnt/archive-bench

# Login nodes mount the tools before the fstab is rolled out; the address comes from the environment.
sudo mount -t nfs -o ro,hard,vers=3,rsize=262144,wsize=262144,nocto,actimeo=600,noatime \
  "${ANF_TOOLS}:/eda-tools" /tools

# From the course notes: "nconnect=16 and hard,intr".
# expect: ANF208 ANF215 ANF217
sudo mount -t nfs -o rw,hard,intr,vers=3,nconnect=16,rsize=262144,wsize=262144 10.10.1.4:/eda-home /home

# A one-off scratch mount for a tape-out run, typed by hand.
# expect: ANF202
sudo mount -t nfs -o rw,hard,vers=3,rsize=262144,wsize=262144,noatmie 10.10.1.5:/eda-scratch /scratch

# The nightly regression writes its results "safely".
# expect: ANF209
sudo mount -t nfs -o rw,hard,sync,vers=3,rsize=262144,wsize=262144 10.10.1.7:/eda-results /results

# A throughput benchmark asked for "the biggest writes ANF takes".
# expect: ANF205 ANF206
sudo mount -t nfs -o ro,hard,vers=3,rsize=262144,wsize=1048576 10.10.1.6:/eda-archive /mnt/archive-bench

# Make the archive mount permanent.
# expect: ANF221
echo "10.10.1.6:/eda-archive /archive nfs ro,hard,vers=3,rsize=262144,wsize=262144 0 0" | sudo tee -a /etc/fstab

sudo mount -a
