#include <linux/mm.h>
