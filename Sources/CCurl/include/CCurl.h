#ifndef TWFEED_CCURL_H
#define TWFEED_CCURL_H
#include <curl/curl.h>

/// Swift cannot call the variadic curl_easy_setopt / curl_easy_getinfo, so each
/// argument type gets a typed wrapper.
CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode ccurl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode ccurl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
CURLcode ccurl_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback callback);
CURLcode ccurl_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback callback);
CURLcode ccurl_setopt_opensocket_function(CURL *handle, curl_opensocket_callback callback);
CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode ccurl_getinfo_string(CURL *handle, CURLINFO info, char **value);

/// For an opensocket callback (the address wall, CurlTransport): copies the IP address
/// libcurl is about to connect to into `bytes` and returns its length, 4 (IPv4) or 16
/// (IPv6); 0 for any other family or a truncated address.
int ccurl_sockaddr_ip(const struct curl_sockaddr *address, unsigned char bytes[16]);
/// Opens the socket libcurl would have opened itself for `address` (close-on-exec).
curl_socket_t ccurl_open_socket(const struct curl_sockaddr *address);

#endif
