"""Stand-in for lightning.pytorch.core: the LightningModule's hooks."""


class LightningModule:
    automatic_optimization = True
    training = True

    def train(self, mode=True):
        self.training = mode

    def eval(self):
        self.training = False

    def training_step(self, batch, batch_idx):
        raise NotImplementedError

    def validation_step(self, batch, batch_idx):
        pass

    def configure_optimizers(self):
        raise NotImplementedError
