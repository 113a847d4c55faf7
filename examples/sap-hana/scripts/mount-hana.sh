#!/bin/bash
# Installation runbook, step 4: mount the HANA volumes of the DEV system on hana-dev-01.
# Volumes and mount targets: see ../hana.anf.yaml and examples/README.md.
set -e

SID=DEV
sudo mkdir -p "/hana/data/${SID}" "/hana/log/${SID}" /hana/shared

# The runbook leaves the version to negotiation.
# expect: ANF211
sudo mount -t nfs -o rw,hard,timeo=600,rsize=262144,wsize=262144,noatime "10.20.3.4:/hana-dev-data" "/hana/data/${SID}"

# Copied from an NFSv3 NetWeaver host; hana-dev-log was created NFSv4.1.
# expect: ANF207 ANF224
sudo mount -t nfs -o rw,soft,vers=3,timeo=600,rsize=262144,wsize=262144 10.20.3.4:/hana-dev-log "/hana/log/${SID}"

# PRD shared, mounted read-only on DEV for transports: the published options.
sudo mount -t nfs -o ro,nfsvers=4.1,hard,timeo=600,rsize=262144,wsize=262144,noatime,lock,sec=sys 10.20.1.5:/hana-prd-shared /hana/shared
