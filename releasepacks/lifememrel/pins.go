// Package lifememrel reads the text a real model sees in the LifeMem paper's
// runs from the authors' release and the upstream benchmark code it defers
// to (τ-bench, ExpeL, AgentBench, Synapse): every file is checked against
// the SHA-256 pinned here, the named prompt pieces are pulled out of the
// Python source with internal/pysrc (never run), and each environment gets
// an Instructor that assembles its prompt the way its source does.
//
// None of those sentences is part of this repository; only where they live
// (repository, commit, file, variable name) and how the code joins them.
package lifememrel

import (
	"fmt"

	"github.com/memharness/memharness/datasets/fetch"
)

// File is one pinned file of a source: its path in the repository, the
// commit it is read at, its SHA-256 and size at that commit.
type File struct {
	Path   string
	Commit string
	SHA256 string
	Size   int64
}

// Source is one repository whose files a LifeMem run reads, fetched as one
// `bench data fetch NAME` target.
type Source struct {
	// Name is the fetch target and the cache folder name.
	Name string
	// Repository is "github.com/owner/name"; Owner/Repo build raw URLs.
	Repository  string
	Owner, Repo string
	Files       []File
}

// rawURL is where GitHub serves f of s at its commit.
func (s Source) rawURL(f File) string {
	return "https://raw.githubusercontent.com/" + s.Owner + "/" + s.Repo + "/" + f.Commit + "/" + f.Path
}

// Pin is "repository@commit" of the source's first file (every source but
// LifeMem's reads one commit).
func (s Source) Pin() string {
	if len(s.Files) == 0 {
		return s.Repository
	}
	return s.Repository + "@" + s.Files[0].Commit
}

// Specs are the download specs of s's files below base (a URL prefix ending
// in "/", served like a checkout; "" means raw GitHub at each file's
// commit). FileName keeps the repository layout. A file without a pin is
// listed for download by hand, never fetched unchecked.
func (s Source) Specs(base string) []fetch.Spec {
	out := make([]fetch.Spec, len(s.Files))
	for i, f := range s.Files {
		u := s.rawURL(f)
		if base != "" {
			u = base + f.Path
		}
		out[i] = fetch.Spec{Name: s.Name, URL: u, SHA256: f.SHA256, Size: f.Size, FileName: f.Path}
	}
	return out
}

// Pinned reports whether every file of s has a recorded SHA-256.
func (s Source) Pinned() bool {
	for _, f := range s.Files {
		if f.SHA256 == "" {
			return false
		}
	}
	return len(s.Files) > 0
}

// FetchHint says how to obtain s.
func (s Source) FetchHint() string {
	return fmt.Sprintf("run 'bench data fetch %s' (or point prompt.release_dirs.%s at a checkout of %s)", s.Name, s.Name, s.Pin())
}

// Fetch target names.
const (
	NameLifeMem    = "lifemem-release"
	NameTauBench   = "tau-bench"
	NameExpeL      = "expel"
	NameAgentBench = "agentbench"
	NameSynapse    = "synapse"
	// NameLifelongAgentBench is the DB task's own repository.
	NameLifelongAgentBench = "lifelongagentbench"
)

// LifeMem commits: the release's folders were committed separately; these
// are the commits the files were read at (github.com/BITHLP/LifeMem).
const (
	lifememScienceWorld = "4caf9da38e587f881a6b86856f720c60a523e02f"
	lifememToolQA       = "15452cf8de088d2f9aa0e68e1c8c6ed871608b5e"
	lifememAPIBank      = "5062600ddd7306023c8f03a0b5ea1eac5afb2753"
	// The memory service and its rule extraction: not read by the
	// prompters (serviceRules re-states their formatting), pinned so the
	// capture can run them.
	lifememMemory = "8a01a70fd46f94c5f393b856636cdd977c07d376"
	lifememServer = "e99cc5e523c9c94010cb1200077a911974b9bb4e"
)

// LifeMem is the authors' release. Its repository cannot be fetched whole
// here (no snapshot), so these digests were computed from the text a
// public search index serves for each file at the named commit. That
// index was first checked against real git checkouts: ExpeL's
// prompts/fever.py, Synapse's synapse/agents/miniwob.py (two 16,000-
// character pages joined) and ToolQA's benchmark/README.md (non-ASCII,
// invisible U+FE0F) came back byte-identical; its one known loss is the
// carriage return of CRLF files (ExpeL's agent/base.py), which shows as a
// text shorter than the character count it reports, and every file below
// came back exactly as long as reported, without tabs or CRs. The shared
// parts of prompts.py, fewshots.py and agents_chatgpt.py also match
// night-chen/ToolQA byte for byte. Should a real download still differ,
// fetch and Open refuse it naming the file and both digests; nothing is
// read unchecked.
var LifeMem = Source{
	Name: NameLifeMem, Repository: "github.com/BITHLP/LifeMem", Owner: "BITHLP", Repo: "LifeMem",
	Files: []File{
		{"ScienceWorld/examples/evaluator.py", lifememScienceWorld, "e8e58b62cbd37affc88963abb68415b52b54e50583bb94ab4784c22655fe3f7b", 17771},
		// The three environments' model clients: their sampling and the
		// reply clean-up (process, "Assistant: " removed) the agents see.
		{"ScienceWorld/examples/llm.py", lifememScienceWorld, "5878a431530038e66b687fc6075d8857daa6e605e8f1af8a49eab3bfe15c7424", 922},
		{"api-bank/utils.py", lifememAPIBank, "b0083baeaf62b6490c5c18cec7260183defaae855e51974b13a33588d81c882a", 926},
		{"ToolQA/benchmark/ReAct/code/utils.py", lifememToolQA, "3e64e9f0e62139ab89f46d3a3fa35a6c3de59c4b1d2f2297e6447cfdac4178cf", 694},
		{"api-bank/evaluator.py", lifememAPIBank, "3294c8f8ba0ffd478ff9748b7c860308cdc07b681dc25da62fc1d570c59e2991", 11049},
		{"ToolQA/benchmark/ReAct/code/prompts.py", lifememToolQA, "eae0a948fc544cd80af31cd894585bf5dab5d73b0f482122367f7fc3105258c9", 12814},
		{"ToolQA/benchmark/ReAct/code/fewshots.py", lifememToolQA, "ad7295c88d7ece14048ddb6513c4a46a51597d864d95c1e887fb9d3a729dbe81", 10513},
		{"ToolQA/benchmark/ReAct/code/agents_chatgpt.py", lifememToolQA, "768b09ba77a36b47129cc2c4f50638d20bb55405271dd8ef36cd4f396bd9d583", 16718},
		{"memory/server.py", lifememServer, "da3301b911e5f57b1bfa5f70ef35c158501f83be8b3a29044f67046581e057d8", 3263},
		{"memory/insight_extraction.py", lifememMemory, "f58ef5da47916f170e807e9f6d0151a60991c6a7a2cce05c63df1eb8824f12b0", 7955},
		{"memory/prompts.py", lifememMemory, "d02249e3b5ab9562b9693c283acc10ccda5bd03490e3ffaa2d08f1c15ec5e396", 6053},
		{"memory/build_memory.py", lifememMemory, "d2f71766c23b522f65cd455b123fe46b5c47401d3996069bad33de9eb24dc9bd", 5001},
	},
}

// TauBench is github.com/sierra-research/tau-bench (read from a fetched
// snapshot at this commit).
const tauCommit = "59a200c6d575d595120f1cb70fea53cef0632f6b"

var TauBench = Source{
	Name: NameTauBench, Repository: "github.com/sierra-research/tau-bench", Owner: "sierra-research", Repo: "tau-bench",
	Files: []File{
		{"tau_bench/agents/chat_react_agent.py", tauCommit, "c545fe77d51a24d0595e719d6bd234f1342a33477f507bc72a29545c04193cb9", 6731},
		{"tau_bench/agents/tool_calling_agent.py", tauCommit, "2d4a02ccd14cb6bdbbeafde49d5d682690625875feb6c9506f903bf98b0792f8", 3252},
		{"tau_bench/types.py", tauCommit, "38c2e79f48f9ac87fbdd7bb763c3ef7e8a825cd3de3998f51b12ecf55733b9db", 1823},
		{"tau_bench/envs/user.py", tauCommit, "ab24eeed85e6261eb2f45420432d84a390cc39b82fc5910b8a4ccd3cee36f07e", 13515},
		{"tau_bench/envs/base.py", tauCommit, "1ad0402073f0ac9ca6b527efa0706e2aa8836dd2e5c1d453ed414ecb768c6d21", 5688},
		{"tau_bench/envs/retail/wiki.md", tauCommit, "d539fd2a46a8b8dd2e934ff9ed92f43e9f6b56bc7a718db8d2803ba8ad8f6bf7", 5718},
		{"tau_bench/envs/airline/wiki.md", tauCommit, "56c335801c16e26b54f600f9db99eb04d31db477e86eb160341d5c66b796c5c8", 6155},
		// The tool classes: their get_info() dicts, in ALL_TOOLS order, are
		// the agent's "#Available tools" (json.dumps(tools_info)).
		{"tau_bench/envs/airline/tools/__init__.py", tauCommit, "98cbafc429cf917a088112b652ec6ef8641b509f0981c04047875f90ec4967f3", 1088},
		{"tau_bench/envs/airline/tools/book_reservation.py", tauCommit, "927ca66e6bf289d27582c939d7300ee028ed0a237e2592afed160265f9953304", 10282},
		{"tau_bench/envs/airline/tools/calculate.py", tauCommit, "3be497428304817e4dae17222dc9d1d41a27d28bf0abc2a613687a6e890d70fe", 1266},
		{"tau_bench/envs/airline/tools/cancel_reservation.py", tauCommit, "5dd83916f9dce20a4bac6ecf45c2f4555ae28f0981339c7d237d3f98af2e6b98", 1528},
		{"tau_bench/envs/airline/tools/get_reservation_details.py", tauCommit, "3c45957d9489e4226000de99f015c67ca5cc920f867c5a5739edba20cd920b6b", 1082},
		{"tau_bench/envs/airline/tools/get_user_details.py", tauCommit, "50cd80bee1fa2da99852ebd37289964f0b5f34994d9f34104f7d6953216fa7c4", 1028},
		{"tau_bench/envs/airline/tools/list_all_airports.py", tauCommit, "8c6921b793ce6e93bfa18024e40fa1136f8c4e8204f8fa6f0248beaf674651ba", 1633},
		{"tau_bench/envs/airline/tools/search_direct_flight.py", tauCommit, "ca64bab422da436c0ab9e3a77135f786ca934e8cb917d502f0dbab2847716c78", 2014},
		{"tau_bench/envs/airline/tools/search_onestop_flight.py", tauCommit, "205b32a28de70bff29f8846c875964af78c6d6d94685bf79579861b3308efa3d", 3240},
		{"tau_bench/envs/airline/tools/send_certificate.py", tauCommit, "d067a526d0a3579cd4a814fa14d231a62da4854520124ff2af8969f16715a773", 1765},
		{"tau_bench/envs/airline/tools/think.py", tauCommit, "ff2b17409d3d6fade8657e2ada46b0b50e33c6570502cba4ec0202652c51ffa5", 980},
		{"tau_bench/envs/airline/tools/transfer_to_human_agents.py", tauCommit, "d3f105f8a8efc11e8dbb039b12e9e1d86d7c1f1ae16a26bd2bbf41cde2b21db6", 1144},
		{"tau_bench/envs/airline/tools/update_reservation_baggages.py", tauCommit, "5b72dc0fcd0a2ae21bb116ddc0a76dcc5d2fc2c71dec1fae75942f24f5d6eafd", 3268},
		{"tau_bench/envs/airline/tools/update_reservation_flights.py", tauCommit, "58ef41d20d5ba53782dce1bbcbd514aaa6fcb0670980f54070d8263ab9f8b985", 6070},
		{"tau_bench/envs/airline/tools/update_reservation_passengers.py", tauCommit, "6ed46b57dc3c6c487219720a10f116774686046f11868c747493ae9a703d2957", 2712},
		{"tau_bench/envs/retail/tools/__init__.py", tauCommit, "db8f1252a01eaa333ee409d78858d5dcf5cdc2f27c24bc6d941615ccd2ac54df", 1302},
		{"tau_bench/envs/retail/tools/calculate.py", tauCommit, "2c3380802673493843ef6d7f3e569e2aed52265ca0b9f7ac248346828d0c75f7", 1324},
		{"tau_bench/envs/retail/tools/cancel_pending_order.py", tauCommit, "c33151a896b62ac87ed1bcbcbd62dabcd47c8c1eaf47bbb5e2f15f8b6283b19d", 3320},
		{"tau_bench/envs/retail/tools/exchange_delivered_order_items.py", tauCommit, "d547d44b28e97513d4a15714d4bd2bbca13f76827bfe06b71e1b51a742f44489", 5370},
		{"tau_bench/envs/retail/tools/find_user_id_by_email.py", tauCommit, "a289f00eb689146f102d97951d6e7b29c9c639314c203efbfcd888f893d91560", 1132},
		{"tau_bench/envs/retail/tools/find_user_id_by_name_zip.py", tauCommit, "22c176ffc285b25db573e0e38d82d678e2641298c6d1318f69d2582d52eb7433", 2013},
		{"tau_bench/envs/retail/tools/get_order_details.py", tauCommit, "ca6c23cc89c1e981251b9adb1e6d705e364ff942aee986b12335b36e94281056", 1087},
		{"tau_bench/envs/retail/tools/get_product_details.py", tauCommit, "9578fb31b5e092361a5d0e5d4a8e2afe4b8fb4a96d279d031b01266d9b5c768d", 1104},
		{"tau_bench/envs/retail/tools/get_user_details.py", tauCommit, "f22b59126c2a2aaa102f39dea778653a9298d1902477dd5246509d019318e8d3", 1021},
		{"tau_bench/envs/retail/tools/list_all_product_types.py", tauCommit, "63b9f562f893bab36fc6fb91da92978ba9c106f2d6fad88aee3ca20801e4a2e3", 1035},
		{"tau_bench/envs/retail/tools/modify_pending_order_address.py", tauCommit, "8f23d24511078ca10818fac8501db358ad699584952233d696a695e78993d001", 3212},
		{"tau_bench/envs/retail/tools/modify_pending_order_items.py", tauCommit, "f1a39d42e42c162dc961afa7f1b4d29c73c5a3710a3b9dff318a076213b6c858", 5707},
		{"tau_bench/envs/retail/tools/modify_pending_order_payment.py", tauCommit, "6c2d4c329fae0d66d50bd48cb6ae9520167137f8b20d3385fa407aa5b03d2fe5", 4364},
		{"tau_bench/envs/retail/tools/modify_user_address.py", tauCommit, "b1f8ac2141056ccee668824d6ab124ce659ea3574e7b186b39af3f558c07ac61", 2920},
		{"tau_bench/envs/retail/tools/return_delivered_order_items.py", tauCommit, "7d92e8962c17e5fa9c8e3240d21e31fc1adf5e68100c92bb0f67e0a67ea5b7bf", 3632},
		{"tau_bench/envs/retail/tools/think.py", tauCommit, "9d9423922fcdc98578c1d6544f35d28ff155e9a5a172355b662db326ef7eb1fc", 1160},
		{"tau_bench/envs/retail/tools/transfer_to_human_agents.py", tauCommit, "2b6d4685da53f72709b28b60e14e1897947ac366bc7ecee6d2b7c7169a3d95a6", 1200},
	},
}

// ExpeL is github.com/LeapLabTHU/ExpeL (HotpotQA, FEVER, ALFWorld and
// WebShop prompts, as LifeMem's README defers to it).
const expelCommit = "e41ec9a24823e7b560c561ab191441b56d9bcefc"

var ExpeL = Source{
	Name: NameExpeL, Repository: "github.com/LeapLabTHU/ExpeL", Owner: "LeapLabTHU", Repo: "ExpeL",
	Files: []File{
		{"prompts/hotpotQA.py", expelCommit, "66e4c997296715828cefe9599e17d83a5a256826ddde4772f2cca02dbf66b798", 22421},
		{"prompts/fever.py", expelCommit, "07df74bae3c11eecaa71f584fabfaabed3a1f7723ea10b05d74d174b21f3700f", 4080},
		{"prompts/alfworld.py", expelCommit, "130356ae2f6e08b9c90447bbf552ea279b4895762e87fe83be4347aff3f0d043", 70525},
		{"prompts/webshop.py", expelCommit, "20107b58023277f7a8cd89c195aa378f2c8ef9a85e4cbd349fda2da5600598de", 22190},
		{"prompts/templates/system.py", expelCommit, "90ff238965728e5f8922c2294be95bc030e1374f22e31bf805a97cb5171b70aa", 204},
		{"prompts/templates/human.py", expelCommit, "fbfdeeb32ce1299b38a7a61b15ec732a53fce42a5e950be176dad367b05bf216", 5997},
		{"configs/benchmark/hotpotqa.yaml", expelCommit, "97fb380ac34a25b9f6f9c76e560363d5307da0ea98f9418512ada0cabd926e86", 194},
		{"configs/benchmark/fever.yaml", expelCommit, "b73452efcfcb3848e2f0afdb1ccf87852b86cd6c23ad881a6a4e7e74664f46cf", 149},
		{"configs/benchmark/alfworld.yaml", expelCommit, "651f3b5551178bc3073985a403fd1d050be25e88412dc399d10d29b609482bde", 7942},
		{"configs/benchmark/webshop.yaml", expelCommit, "da65654875bdb142ea8c21173726085a8ed92fe4dfe3c112fd1ae1b4f0142d02", 197},
		{"agent/react.py", expelCommit, "a0b8f6c2652bedfaa1442cafd0f22f8f6e050b5daf3355041df532d9a8adb552", 11193},
		{"utils.py", expelCommit, "5b7ee915b8f4aa53c6f4162a19834a663030b679178001c86129afb05211a82b", 22542},
		// ExpeL's 100 fixed WebShop sessions: their task text is the
		// prompt's task line.
		{"data/webshop/webshop.fixed100.json", expelCommit, "5a46d7690fcc0cd8b5f3a3e28165ee7c8a3053e62c8a8e43534d057f71c60887", 52818},
	},
}

// AgentBench is github.com/THUDM/AgentBench at the last commit before the
// function-calling rewrite (5bf4eb2), which still holds the dbbench prompt
// LifelongAgentBench inherits.
const agentbenchCommit = "41e6807349f741e06428fae3e9e4d334e7002362"

var AgentBench = Source{
	Name: NameAgentBench, Repository: "github.com/THUDM/AgentBench", Owner: "THUDM", Repo: "AgentBench",
	Files: []File{
		{"src/server/tasks/dbbench/__init__.py", agentbenchCommit, "8b7b78cc7e5ae04897110083da3be1e17e5cb4b61b9caf14200fad27936df4e8", 9273},
	},
}

// LifelongAgentBench is github.com/caixd-220529/LifelongAgentBench, whose
// DB task the stream's "dbbench" environment is: LifeMem's training
// trajectories open with its task requirement, not AgentBench's.
const lifelongCommit = "d6f19b42eb358d9150379f0c68c2985c5a867520"

var LifelongAgentBench = Source{
	Name: NameLifelongAgentBench, Repository: "github.com/caixd-220529/LifelongAgentBench", Owner: "caixd-220529", Repo: "LifelongAgentBench",
	Files: []File{
		{"src/factories/chat_history_item/offline/task_requirement.py", lifelongCommit, "e56ed91d4dda424c750a69aa9f6d04684b97e7982270baf84f21cebbc258b1da", 7682},
		{"src/factories/chat_history_item/offline/construct.py", lifelongCommit, "41f0a89d692370b83c33088d460ac859cd55dec5a511a02e62d25f5514eef23a", 1510},
		{"src/tasks/instance/db_bench/task.py", lifelongCommit, "64a7a8a930dd2e4e854de66209958c9138009e6793eded275e307f4ecddb138c", 23735},
		// LanguageModelAgent's defaults: the system prompt every run sends
		// (no assignment config overrides it) and inference_config_dict {}.
		{"configs/components/agents/language_model_agent.yaml", lifelongCommit, "6bc30676e63a5585e41b7353f905245c4f643bd3f2048b7ea22616620a6b6571", 356},
	},
}

// Synapse is github.com/ltzheng/Synapse (MiniWoB++ and Mind2Web agents,
// MiniWoB++ exemplars).
const synapseCommit = "9e6021f86ef7ea56c83cdee29c8d07b3e5d1121b"

var Synapse = Source{
	Name: NameSynapse, Repository: "github.com/ltzheng/Synapse", Owner: "ltzheng", Repo: "Synapse",
	Files: []File{
		{"synapse/agents/miniwob.py", synapseCommit, "f61eeec950d98cbe247988bca04405c16d0d5bc6d150e6a949013e7e37a6eac2", 18005},
		{"synapse/agents/mind2web.py", synapseCommit, "7e3b8ba57a2a39bff969384b9e33394a1731e2d2b01f6d85fc1ebee09cfad893", 22046},
		{"synapse/envs/mind2web/env_utils.py", synapseCommit, "3bdbefc0c35e32cb5b638675985cbe4924bac941484d3ef623f85b0379a9063f", 13778},
		{"synapse/memory/miniwob/build_memory.py", synapseCommit, "4f806c5cb69aa5be5822dda4f9b1cd4bc23f31065879c794847ce68b621ed62a", 2751},
		{"synapse/memory/miniwob/exemplars.json", synapseCommit, "043ae858892c9ab2685822c6db5b5085f59a599e92aed198866d6a7c1113ef5c", 284933},
	},
}

// Sources lists every source in fetch-name order.
var Sources = []Source{LifeMem, TauBench, ExpeL, AgentBench, LifelongAgentBench, Synapse}

// Find returns the source named name.
func Find(name string) (Source, bool) {
	for _, s := range Sources {
		if s.Name == name {
			return s, true
		}
	}
	return Source{}, false
}

// Names lists the fetch names.
func Names() []string {
	out := make([]string, len(Sources))
	for i, s := range Sources {
		out[i] = s.Name
	}
	return out
}
