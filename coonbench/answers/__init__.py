"""A model's reply as an answer: normalising it (``normalize``), pulling code out of it (``extract``) and checking
that the code is a program in its format (``check``). Shared by every task's scorer and the retry solver."""
