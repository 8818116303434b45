/* dev_host.h — the host driver: the device backend's passes on the calling thread (tests, every machine). */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_DEV_HOST_H
#define HOOKE_DEV_HOST_H

#include "dev_abi.h"

/* The driver "host": its one device is this CPU, its memory the heap. */
const hkd_driver *hk_device_host_driver(void);

#endif
