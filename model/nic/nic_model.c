/* The registry of NIC models: one line each. */
#include "nic_model.h"

const struct nic_model *const nic_models[] = {
	&nic_mlx5_legacy,
	NULL,
};
