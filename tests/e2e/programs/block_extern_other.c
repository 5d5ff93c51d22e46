int counter = 5;
double history[4];
