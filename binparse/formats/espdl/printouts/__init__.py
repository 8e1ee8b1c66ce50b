"""What esp-ppq prints or records beside a model: the .info printout, and its checks against the model."""
