-- Personas (spec 1 §2.6, §3.2, §4.6; docs/presenters.md): reusable presenters, each private to its account,
-- made from one photo of one person, with further photos of the same person as looks.
--
-- status: processing while the first photo is analysed, then ready, or failed (the reason in `failure`, the
-- charge refunded). supported_engines: fixed at creation from the engines configured then (avatar_iii always).
-- lease_until: while processing, renewed by the process analysing it. A lapsed lease means that process died:
-- the service fails and refunds such a persona when it starts, and every lease period after.
-- price_cents: what creation was charged (its ledger entries name the persona id as their job_id).
-- deleted_at: DELETE removes the looks and their files; the row stays, so its charge and refund still name
-- something.
CREATE TABLE personas (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  name text NOT NULL,
  status text NOT NULL CHECK (status IN ('processing', 'ready', 'failed')),
  supported_engines text[] NOT NULL,
  price_cents integer NOT NULL CHECK (price_cents >= 0),
  failure jsonb,
  lease_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  CHECK ((status = 'processing') = (lease_until IS NOT NULL)),
  CHECK ((status = 'failed') = (failure IS NOT NULL))
);
CREATE INDEX personas_account_order ON personas (account_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX personas_leases ON personas (lease_until) WHERE status = 'processing';

-- One analysed photo of a persona: the normalised photo and the person's cut-out mask (PNG, 255 = person) in
-- the media store, and the face as the vision module found it, in that photo's pixels. The primary look is
-- the creation photo; other looks were accepted as the same person by descriptor distance to it.
-- landmarks: the 478 FaceMesh points flattened (x, y, z, x, y, z, …). descriptor: the L2-normalised FaceRes
-- descriptor. Boxes are {x, y, width, height}; rotation {roll, yaw, pitch} in radians or null.
-- age, gender, gender_score: FaceRes estimates when it gave them (the photo policy and the default voice).
CREATE TABLE persona_looks (
  id text PRIMARY KEY,
  persona_id text NOT NULL REFERENCES personas (id) ON DELETE CASCADE,
  name text,
  is_primary boolean NOT NULL,
  photo_key text NOT NULL,
  photo_width integer NOT NULL CHECK (photo_width > 0),
  photo_height integer NOT NULL CHECK (photo_height > 0),
  person_mask_key text,
  face_box jsonb NOT NULL,
  face_score real NOT NULL,
  mouth_box jsonb NOT NULL,
  left_eye_box jsonb NOT NULL,
  right_eye_box jsonb NOT NULL,
  rotation jsonb,
  landmarks real[] NOT NULL,
  descriptor real[] NOT NULL,
  age real,
  gender text CHECK (gender IN ('female', 'male')),
  gender_score real,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX persona_looks_one_primary ON persona_looks (persona_id) WHERE is_primary;
CREATE INDEX persona_looks_persona ON persona_looks (persona_id, created_at, id);
