#define ZEROS(n) (int[n]){0}

int *counts = ZEROS(4);
