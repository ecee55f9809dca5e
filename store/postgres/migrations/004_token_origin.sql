-- 004: a push token is bound to the machine (and, if given, the user) it
-- was made for: it pushes only batches naming that origin. Tokens made
-- before name none; a push token among them pushes nothing until it is
-- replaced by one that names its machine.
ALTER TABLE tokens ADD COLUMN machine text NOT NULL DEFAULT '';
ALTER TABLE tokens ADD COLUMN user_name text NOT NULL DEFAULT '';
