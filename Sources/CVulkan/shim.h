#pragma once
#include <vulkan/vulkan.h>
