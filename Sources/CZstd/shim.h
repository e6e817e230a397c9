#ifndef LOCALDYNAMO_CZSTD_SHIM_H
#define LOCALDYNAMO_CZSTD_SHIM_H
#include <zstd.h>
#endif
