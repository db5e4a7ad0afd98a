-- A counter moderation raises (store/moderation.go), in the same transaction as the change: a
-- results server keeps rankings for a while, and reads this counter often to drop what it kept
-- as soon as the operator, from another process, hides or approves a result.

-- +goose Up
CREATE TABLE moderation_epoch (
    id    INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
    epoch BIGINT NOT NULL
);
INSERT INTO moderation_epoch (id, epoch) VALUES (1, 0);

-- +goose Down
DROP TABLE moderation_epoch;
