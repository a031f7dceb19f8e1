// Only the EVP digest interface: <openssl/sha.h> would bring a C function named SHA256
// into Swift beside TwfeedKit's SHA256 type, and its one-shot calls are the legacy API.
#include <openssl/evp.h>
