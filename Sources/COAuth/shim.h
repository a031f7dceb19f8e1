#include <stddef.h>
#include <stdlib.h>
#include <oauth.h>
