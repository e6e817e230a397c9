#ifndef LOCALDYNAMO_CCURL_SHIM_H
#define LOCALDYNAMO_CCURL_SHIM_H
#include <curl/curl.h>
#endif
